import collections, sys
import cards_db.loader as L
errors = []
def collect(path, frame, index, column, problem):
    slug = frame.at[index, "slug"] if "slug" in frame.columns else ""
    errors.append((str(path).rsplit("/", 1)[-1], L.row_number(index), slug, column, problem))
L._fail = collect
orig = L.CardDataError
try:
    L.read_card_files()
except orig as e:
    errors.append(("RAISED", 0, "", "", str(e)))
kinds = collections.Counter(p.split(":")[0][:50] for *_, p in errors)
for e in errors: print(e)
print(len(errors))
