"""``/notify``: a person's own notification settings (``notifying.py``) — shown or changed, answered privately
wherever they asked; stored on their player row, read by the reminders when they fire."""
from __future__ import annotations

from bot import i18n
from bot.i18n import _
from bot.service import commands as c, notifying
from bot.service.context import Context
from bot.service.errors import clean
from bot.service.handlers.away import remember_notify
from bot.service.languages import person_language
from bot.service.messages import Message


async def change_notify(ctx: Context, command: c.ChangeNotify) -> list[Message]:
    user = command.user
    changes = notifying.parse_notify(clean(command.text, 300))
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        if changes:
            player.notify = {**(player.notify or {}), **changes}
        notify = player.notify
        with i18n.using(person_language(player)):
            text = notifying.describe(notify)
            if changes:
                text = _("✅ Saved.") + "\n" + text
        await uow.commit()
    remember_notify(ctx, user, notify)
    return [Message(text, user=user, kind="info")]
