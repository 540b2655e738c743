"""``{% powers contest as can %}``: what the visitor may do to a contest (contests.roles), for
the links and buttons a page shows: ``can.judge``, ``can.organise``, ``can.name``."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from contests import roles

register = template.Library()


@dataclass(frozen=True)
class Powers:
    view: bool
    judge: bool
    organise: bool
    name: bool


@register.simple_tag(takes_context=True)
def powers(context, contest) -> Powers:
    user = context.get("user")
    return Powers(*(roles.may(user, contest, power) for power in roles.Power))
