"""Each existing contest gets its people from what was global before: its owner is the first
organiser in its judges' log (else the site's first administrator); the other organisers in
its log become its co-organisers; every member of the old global ``judges`` group is
named judge of every existing contest (what they could do before), and the group, which no
longer gives any right, is removed."""

from django.db import migrations


def forwards(apps, schema_editor):
    Contest = apps.get_model("contests", "Contest")
    ContestRole = apps.get_model("contests", "ContestRole")
    JudgeAction = apps.get_model("contests", "JudgeAction")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model("auth", "User")

    organisers = set(User.objects.filter(groups__name="Organisers").values_list("pk", flat=True))
    first_admin = User.objects.filter(is_superuser=True, is_active=True).order_by("date_joined", "pk").first()
    judges = list(User.objects.filter(groups__name="judges").values_list("pk", flat=True))
    for contest in Contest.objects.all():
        log = JudgeAction.objects.filter(contest=contest, judge__isnull=False).order_by("at", "pk")
        editors = []
        for user_id in log.values_list("judge_id", flat=True):
            if user_id in organisers and user_id not in editors:
                editors.append(user_id)
        owner = editors[0] if editors else (first_admin.pk if first_admin else None)
        if owner is not None:
            ContestRole.objects.create(contest=contest, user_id=owner, role="owner")
        for user_id in editors[1:]:
            ContestRole.objects.create(contest=contest, user_id=user_id, role="organiser")
        for user_id in judges:
            if user_id != owner and user_id not in editors:
                ContestRole.objects.create(contest=contest, user_id=user_id, role="judge")
    Group.objects.filter(name="judges").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0016_contest_roles"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
