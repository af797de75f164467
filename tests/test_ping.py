"""GET /ping: a constant JSON with no database access (the load test's bare reference)."""

from conftest import statements_run


def test_ping_answers_constant_json_without_the_database(app, client):
    with statements_run(app) as statements:
        for _ in range(3):
            response = client.get("/ping")
            assert response.status_code == 200
            assert response.get_json() == {"ok": True}
            assert response.mimetype == "application/json"
    assert statements == []
