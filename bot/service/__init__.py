"""The platform-neutral service layer that every adapter calls: commands in (``handle``), messages out."""
from storage import DatabaseUnavailable
from bot.service.core import Service, build_service
from bot.service.errors import ServiceError
from bot.service.options import parse_options
from bot.service.messages import Button, ChatRef, Menu, Message, UserRef

__all__ = ["Service", "ServiceError", "DatabaseUnavailable", "build_service", "parse_options", "Button", "ChatRef",
           "Menu", "Message", "UserRef"]
