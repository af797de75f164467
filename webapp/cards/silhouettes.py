"""Card illustrations: SVG silhouettes per body plan, and a size comparison with a person."""

import functools
import xml.etree.ElementTree as ET
from pathlib import Path

from markupsafe import Markup, escape

from cards_db.schema import HEIGHT_MEASURES

FOLDER = Path(__file__).parents[1] / "static" / "silhouettes"
SVG_NS = "http://www.w3.org/2000/svg"
HUMAN_HEIGHT_M = 1.8
ET.register_namespace("", SVG_NS)


@functools.cache
def shape(body_plan):
    """Return (viewBox numbers, inner SVG markup) of a body plan's drawing."""
    root = ET.parse(FOLDER / f"{body_plan}.svg").getroot()
    box = tuple(float(n) for n in root.get("viewBox").replace(",", " ").split())
    inner = "".join(
        ET.tostring(child, encoding="unicode") for child in root if not child.tag.endswith("title")
    )
    return box, inner.replace(f' xmlns="{SVG_NS}"', "").replace("ns0:", "")


def silhouette(body_plan, color, label):
    """Return an inline SVG of the body plan in `color`, labelled for screen readers."""
    (x, y, w, h), inner = shape(body_plan)
    return Markup(
        '<svg class="silhouette" xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" '
        'role="img" aria-label="{}" color="{}"><title>{}</title>{}</svg>'
    ).format(x, y, w, h, label, color, label, Markup(inner))


def drawn_size(body_plan, size_m, measure):
    """Return the (width, height) in metres of the drawing of an animal of measured size."""
    (_, _, w, h), _ = shape(body_plan)
    if measure in HEIGHT_MEASURES:
        return size_m * w / h, size_m
    return size_m, size_m * h / w


PERSON_LABEL = "person, 1.8 m"
PERSON_LABEL_WIDTH = 0.62 * 14 * len(PERSON_LABEL)  # at the label's 14 px: a generous average letter width


def comparison(card, width=640, height=240, gap_m=0.3):
    """Return an SVG of the card's animal beside a 1.8 m person, both to scale; None if no size."""
    if not card.length_m:
        return None
    human = drawn_size("human", HUMAN_HEIGHT_M, "standing height")
    animal = drawn_size(card.body_plan, card.length_m, card.size_measure)
    gap = max(gap_m, 0.1 * max(human[0], animal[0]))
    scale = min((width - 20) / (human[0] + gap + animal[0]), (height - 30) / max(human[1], animal[1]))
    # The person's label is written above the head and runs to the right: the animal starts after it.
    if (human[0] + gap) * scale < PERSON_LABEL_WIDTH + 8:
        scale = min((width - 28 - PERSON_LABEL_WIDTH) / animal[0], (height - 30) / max(human[1], animal[1]))
    ground = height - 24
    parts = []
    left = 10
    for plan, (w, h), colour, label in (
        ("human", human, "#33415c", PERSON_LABEL),
        (card.body_plan, animal, "#6b3e00", card.common_name),
    ):
        (vx, vy, vw, vh), inner = shape(plan)
        pw, ph = max(w * scale, 1.5), max(h * scale, 1.5)
        parts.append(
            f'<svg x="{left:.1f}" y="{ground - ph:.1f}" width="{pw:.1f}" height="{ph:.1f}" '
            f'viewBox="{vx} {vy} {vw} {vh}" color="{colour}" preserveAspectRatio="none">{inner}</svg>'
        )
        parts.append(label_position(plan, left, pw, ground, ph, height, escape(label)))
        if max(pw, ph) < 8:
            # Too small to see at this scale: ring it so the eye finds it.
            parts.append(f'<circle cx="{left + pw / 2:.1f}" cy="{ground - ph / 2:.1f}" r="12" '
                         f'class="tiny-marker"/>')
        left = max(left + pw + gap * scale, 10 + PERSON_LABEL_WIDTH + 8)
    return Markup(
        f'<svg class="size-comparison" xmlns="{SVG_NS}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="comparison-caption">'
        f'<line x1="0" y1="{ground}" x2="{width}" y2="{ground}" class="ground"/>{"".join(parts)}</svg>'
    )


def label_position(plan, left, width, ground, drawn_height, height, label):
    """Return the SVG text naming one figure: the person's above the head, the animal's below it."""
    if plan == "human":
        return (f'<text x="{left:.1f}" y="{max(ground - drawn_height - 6, 14):.1f}" '
                f'class="comparison-label">{label}</text>')
    return (f'<text x="{left + width / 2:.1f}" y="{height - 6}" text-anchor="middle" '
            f'class="comparison-label">{label}</text>')


def comparison_sentence(card):
    """Say in words how the animal's size compares with a 1.8 m person."""
    if not card.length_m:
        return None
    ratio = card.length_m / HUMAN_HEIGHT_M
    measure = card.size_measure or "size"
    if ratio >= 1.15:
        return f"Its {measure} is about {ratio:.1f} times a person's height (1.8 m)."
    if ratio <= 1 / 1.15:
        times = f"{1 / ratio:,.0f}" if ratio < 0.1 else f"{1 / ratio:.1f}"
        return f"A person (1.8 m) is about {times} times its {measure}."
    return f"Its {measure} is about the same as a person's height (1.8 m)."
