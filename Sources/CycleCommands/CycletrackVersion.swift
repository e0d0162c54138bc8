import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
/// cycletrack's version: what `cycletrack --version` prints. The add-on's
/// `cycletrack/config.yaml` carries the same string (a test checks), and release
/// tarballs and published images are named after it.
public enum CycletrackVersion {
    public static let current = "0.2.0"
}
