"""Herald the application: the service layer and the adapters (console, Discord, Telegram)."""
