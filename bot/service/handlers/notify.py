"""``/notify``: a person's own notification settings (``notifying.py``) — shown or changed, answered privately
wherever they asked; stored on their player row, read by the reminders when they fire."""
from __future__ import annotations

from bot import i18n
from bot.i18n import _
from bot.service import buttons as codes, commands as c, notifying
from bot.service.context import Context
from bot.service.errors import clean
from bot.service.handlers.away import remember_notify
from bot.service.languages import person_language
from bot.service.messages import Button, Message


async def change_notify(ctx: Context, command: c.ChangeNotify) -> list[Message]:
    user = command.user
    changes = notifying.parse_notify(clean(command.text, 300))
    async with ctx.uow() as uow:
        player = await uow.players.get_or_create(user.platform, user.id, user.name, user.locale)
        ask = _zone_unknown(player.notify or {}, changes)
        if changes:
            player.notify = {**(player.notify or {}), **changes, **({"zone_asked": True} if ask else {})}
        notify = player.notify
        buttons = []
        with i18n.using(person_language(player)):
            text = notifying.describe(notify)
            if changes:
                text = _("✅ Saved.") + "\n" + text
            if ask:
                text += "\n\n" + _("🕰 Your hours are counted in UTC for now (it is {time} there). Which time zone do "
                                   "you live in? Tap it, or type /notify tz=Region/City.",
                                   time=ctx.now().strftime("%H:%M"))
                zones = [Button(zone, codes.time_zone(i)) for i, zone in enumerate(notifying.SUGGESTED_ZONES)]
                buttons = [zones[i:i + 2] for i in range(0, len(zones), 2)]
        await uow.commit()
    remember_notify(ctx, user, notify)
    return [Message(text, user=user, kind="info", buttons=buttons)]


def _zone_unknown(notify: dict, changes: dict) -> bool:
    """Whether to ask for the person's time zone: hours of theirs (quiet hours, the digest's hour) were just set,
    no zone was ever chosen, and this was not asked before (it is asked once)."""
    hours = any(changes.get(key, "off") != "off" for key in ("quiet", "digest"))
    return hours and "tz" not in notify and "tz" not in changes and not notify.get("zone_asked")
