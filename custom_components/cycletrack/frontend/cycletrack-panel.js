// The Cycles sidebar panel (panel.py): cycletrack's history page in a frame.
//
// Each time the panel is shown it asks Home Assistant to sign the entry's session path for
// the logged-in user (`auth/sign_path`, valid for seconds) and opens that in its frame; the
// session behind it lapses unused. Nothing long-lived is ever in an address.
class CycletrackPanel extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML = `<style>
      :host { display: block; height: 100%; background: var(--primary-background-color); }
      iframe { border: 0; width: 100%; height: 100%; display: block; }
      p { margin: 0; padding: 16px; color: var(--primary-text-color); font-family: var(--ha-font-family-body, sans-serif); }
      p:empty { display: none; }
    </style><p role="alert"></p><iframe title="Cycles"></iframe>`;
    this._shown = false;
  }

  set hass(hass) {
    this._hass = hass;
    this._show();
  }

  set panel(panel) {
    this._panel = panel;
    this._show();
  }

  connectedCallback() {
    this._show();
  }

  disconnectedCallback() {
    this._shown = false;
  }

  async _show() {
    if (this._shown || !this._hass || !this._panel || !this.isConnected) return;
    this._shown = true;
    const { session_path: path, signature_seconds: expires } = this._panel.config;
    const message = this.shadowRoot.querySelector("p");
    try {
      const signed = await this._hass.callWS({ type: "auth/sign_path", path, expires });
      message.textContent = "";
      this.shadowRoot.querySelector("iframe").src = signed.path;
    } catch (error) {
      this._shown = false;
      message.textContent = `cycletrack's history can't be opened: ${error && error.message ? error.message : error}`;
    }
  }
}

if (!customElements.get("cycletrack-panel")) {
  customElements.define("cycletrack-panel", CycletrackPanel);
}
