#!/usr/bin/env python3
"""Draws the add-on's icon.png (256x256) and logo.png (250x100): a progress ring,
three quarters done, around a dishwasher's outline, and on the logo the word
"cycletrack". Run once by hand when the images should change; the PNGs are committed.

    <HA venv>/bin/python scripts/deploy/make_icons.py    # needs Pillow (in HA's venv)

The logo's text uses DejaVu Sans Bold (Debian: fonts-dejavu-core).
"""
import os

from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON = os.path.join(HERE, "..", "..", "cycletrack")
SCALE = 4  # drawn large, scaled down: smooth edges
TRACK = (216, 224, 232, 255)
PROGRESS = (3, 169, 244, 255)  # Home Assistant's blue
INK = (44, 62, 80, 255)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def glyph(size: int) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    unit = big / 256
    ring = [int(14 * unit), int(14 * unit), int(242 * unit), int(242 * unit)]
    width = int(22 * unit)
    draw.arc(ring, 0, 360, fill=TRACK, width=width)
    draw.arc(ring, -90, 180, fill=PROGRESS, width=width)  # 75 %, clockwise from the top
    # The dishwasher: a rounded body, a control strip with a knob and a light, a door handle.
    body = [int(78 * unit), int(70 * unit), int(178 * unit), int(186 * unit)]
    line = int(9 * unit)
    draw.rounded_rectangle(body, radius=int(12 * unit), outline=INK, width=line)
    draw.line([int(78 * unit), int(100 * unit), int(178 * unit), int(100 * unit)], fill=INK, width=line)
    draw.ellipse([int(96 * unit), int(79 * unit), int(110 * unit), int(93 * unit)], fill=INK)
    draw.ellipse([int(146 * unit), int(80 * unit), int(158 * unit), int(92 * unit)], fill=PROGRESS)
    draw.rounded_rectangle([int(108 * unit), int(116 * unit), int(148 * unit), int(126 * unit)],
                           radius=int(5 * unit), fill=INK)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    glyph(256).save(os.path.join(ADDON, "icon.png"), optimize=True)
    logo = Image.new("RGBA", (250 * SCALE, 100 * SCALE), (0, 0, 0, 0))
    logo.paste(glyph(88 * SCALE), (6 * SCALE, 6 * SCALE))
    draw = ImageDraw.Draw(logo)
    size = 30
    while ImageFont.truetype(FONT, size * SCALE).getlength("cycletrack") > 144 * SCALE:
        size -= 1  # the largest that fits beside the glyph
    draw.text((100 * SCALE, 50 * SCALE), "cycletrack", font=ImageFont.truetype(FONT, size * SCALE), fill=INK, anchor="lm")
    logo.resize((250, 100), Image.LANCZOS).save(os.path.join(ADDON, "logo.png"), optimize=True)


if __name__ == "__main__":
    main()
