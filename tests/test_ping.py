"""GET /ping: a constant JSON with no database access (the load test's bare reference)."""

from sqlalchemy import event

from webapp.extensions import db


def test_ping_answers_constant_json_without_the_database(app, client):
    statements = []
    with app.app_context():
        engine = db.engine

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        for _ in range(3):
            response = client.get("/ping")
            assert response.status_code == 200
            assert response.get_json() == {"ok": True}
            assert response.mimetype == "application/json"
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert statements == []

