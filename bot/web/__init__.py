"""Herald on the web: ``python -m bot web`` serves the league pages of the chats that opted in (``bot.web.app``)."""
