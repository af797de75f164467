"""The layout a newcomer relies on: one package per feature, its blueprint named as it, its templates beside
its name, no page module used as a library, and game state read only by the engines."""

import ast
import re
import sys
from pathlib import Path

from webapp.play.adapters import ADAPTERS

WEBAPP = Path(__file__).resolve().parents[1] / "webapp"
FEATURES = ("main", "auth", "cards", "timeline", "play", "classroom", "learn", "sources", "tricky")
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


def python_files(folder=WEBAPP):
    """Yield (path, parsed module) of every module below `folder` (migrations excepted)."""
    for path in sorted(folder.rglob("*.py")):
        if "migrations" not in path.parts:
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def imported_modules(tree):
    """Return the webapp modules a module imports, anywhere in it (inside functions too)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def feature_of(module):
    """Return the feature a dotted module name belongs to, or None."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "webapp" and parts[1] in FEATURES else None


def test_no_code_outside_the_format_objects_asks_a_rounds_format_by_name():
    from webapp.classroom.formats import FORMATS

    names = set(FORMATS)
    formats_folder = WEBAPP / "classroom" / "formats"
    checked = 0
    for path, tree in python_files():
        if formats_folder in path.parents:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                parts = [part for side in [node.left, *node.comparators] for part in ast.walk(side)]
                constants = {p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)}
                formats = [p for p in parts if "format" in getattr(p, "attr", getattr(p, "id", "")) or
                           getattr(p, "id", "") == "fmt"]
                checked += bool(formats)
                assert not (formats and constants & names), (str(path.relative_to(WEBAPP)), node.lineno)
    assert checked, "no comparison of a format was found: the check would prove nothing"
    quoted = "|".join(names)
    by_name = re.compile(rf"(==|!=|\bin\b)\s*\(?\s*['\"]({quoted})['\"]|['\"]({quoted})['\"]\s*(==|!=)")
    by_field = re.compile(r"\b(round|rnd)\.format\s*(==|!=|\bin\b)|~\s*(round|rnd)\.format")
    for path in sorted((WEBAPP / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        # Outside the classroom's templates the same words name other things (a lesson's "quiz" activity).
        found = by_field.search(text) or ("classroom" in path.parts and by_name.search(text))
        assert not found, (str(path.relative_to(WEBAPP)), found.group(0))


def test_shared_parts_import_no_feature():
    for path, tree in python_files(WEBAPP / "common"):
        features = {feature_of(module) for module in imported_modules(tree)} - {None}
        assert not features, (path.name, features)


def test_no_two_features_import_each_other_even_through_others():
    graph = {feature: set() for feature in FEATURES}
    for path, tree in python_files():
        own = feature_of(".".join(path.relative_to(WEBAPP.parent).with_suffix("").parts))
        if own:
            graph[own] |= {feature_of(m) for m in imported_modules(tree)} - {None, own}
    assert any(graph.values()), "no import between features was found: the check would prove nothing"

    def reaches(start, goal, seen=()):
        return any(step == goal or (step not in seen and reaches(step, goal, (*seen, step))) for step in graph[start])

    assert not [feature for feature in FEATURES if reaches(feature, feature)], graph


def test_importing_a_module_registers_nothing_in_another():
    """A registry is filled where it is made, or by an explicit call at start-up (init_app), never as a side effect."""
    for path, tree in python_files():
        ours = {alias.asname or alias.name.split(".")[0] for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
                and (getattr(node, "module", None) or node.names[0].name).startswith("webapp") for alias in node.names}
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AugAssign | ast.AnnAssign) else []
            reached = [part for target in targets if not isinstance(target, ast.Name) for part in ast.walk(target)]
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                reached = list(ast.walk(node.value.func))
            assert not {getattr(part, "id", None) for part in reached} & ours, (str(path.relative_to(WEBAPP)), node.lineno)


def test_the_engines_import_nothing_but_each_other_and_the_standard_library():
    allowed_outside = {"markupsafe", "cards_db", "cards_db.schema"}  # text escaping; the card data's allowed values
    for path, tree in python_files(WEBAPP / "games"):
        for module in imported_modules(tree):
            top = module.split(".")[0]
            if top == "webapp":
                assert module.startswith("webapp.games"), (str(path.relative_to(WEBAPP)), module)
            else:
                assert top in sys.stdlib_module_names or top == "markupsafe" or module in allowed_outside, (
                    str(path.relative_to(WEBAPP)), module)


def test_every_class_name_is_used_once():
    """Two classes of one name (a row and the state machine's view of it, say) make every reader look twice."""
    defined = [node.name for _, tree in python_files() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    assert len(defined) > 20
    assert sorted({name for name in defined if defined.count(name) > 1}) == []


def test_the_classroom_reads_a_rounds_game_only_through_its_format():
    """Only the format's base (machine, observe, turn) reads a stored round's game; rounds.py stores what the machine
    returns. Every view reads an observation."""
    allowed = {"classroom/formats/base.py", "classroom/rounds.py"}
    readers = set()
    for path, tree in python_files(WEBAPP / "classroom"):
        if any(isinstance(node, ast.Attribute) and node.attr == "state" for node in ast.walk(tree)):
            readers.add(str(path.relative_to(WEBAPP)))
    assert readers == allowed
