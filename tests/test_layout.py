"""The layout a newcomer relies on: one package per feature, its blueprint named as it, its templates beside
its name, no page module used as a library, and game state read only by the engines."""

import ast
import re
from pathlib import Path

from webapp.play.adapters import ADAPTERS

WEBAPP = Path(__file__).resolve().parents[1] / "webapp"
FEATURES = ("main", "auth", "cards", "timeline", "play", "classroom", "learn")
SHARED_TEMPLATES = {"errors"}  # the one error page every feature answers with


def modules():
    """Yield (dotted name, source) of every module of the web layer (the engines excepted)."""
    for path in sorted(WEBAPP.rglob("*.py")):
        relative = path.relative_to(WEBAPP.parent).with_suffix("")
        if "games" not in relative.parts and "migrations" not in relative.parts:
            yield ".".join(relative.parts), path.read_text(encoding="utf-8")


def page_modules():
    """Return the modules that register routes."""
    return {name for name, source in modules() if re.search(r"^@bp\.|bp\.add_url_rule\(", source, re.MULTILINE)}


def test_every_feature_is_a_package_whose_blueprint_bears_its_name(app):
    assert set(app.blueprints) == set(FEATURES)
    for name, blueprint in app.blueprints.items():
        assert blueprint.import_name == f"webapp.{name}"


def test_templates_sit_in_a_folder_named_after_their_feature():
    folders = {path.name for path in (WEBAPP / "templates").iterdir() if path.is_dir()}
    assert folders <= set(FEATURES) | SHARED_TEMPLATES


def test_no_page_module_is_imported_by_another_module():
    pages = page_modules()
    assert pages, "no page module found: the check would prove nothing"
    for name, source in modules():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
                # A feature's register() (in its __init__) loads its own page modules; nothing else may.
                own = name.removesuffix(".__init__") + "." if name.endswith(".__init__") else None
                assert not {m for m in imported & pages if not (own and m.startswith(own))}, (name, imported & pages)


def test_no_code_outside_the_engines_reads_a_stored_states_keys():
    reads = re.compile(r"\bstate(?:\[|\.get\()")
    for name, source in modules():
        assert not reads.search(source), name


def test_every_game_the_app_serves_has_an_adapter_with_its_pages(app):
    from webapp.games import GAMES

    assert set(ADAPTERS) == set(GAMES)
    for adapter in ADAPTERS.values():
        for template in (adapter.new_template, adapter.board_template):
            assert (WEBAPP / "templates" / template).is_file(), template
