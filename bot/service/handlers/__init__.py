"""The use cases: plain async functions ``handler(ctx, command) -> [Message]``, one module per concept.

The bus (``bot.service.bus``) maps each command to its handler; the loops (timers, AI jobs, the outbox) call
``timers``, ``ai_turns`` and ``bot.service.outbox`` directly.
"""
