"""Forgetting children's data on time: the `flask forget` command, and the app running it once a day itself."""


def register(app):
    """Register this feature on the app: its command, and the daily run after requests (imported here, so
    importing a service never loads it)."""
    from webapp.privacy import forget

    app.cli.add_command(forget.forget_command)
    daily = forget.DailyRun(app)
    app.after_request(daily.after_request)
