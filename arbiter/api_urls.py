from django.urls import path, re_path

from web import events as events_api
from web import game_api
from web.api import contests, entries, judges, matches, notifications
from web.api_support import not_found

urlpatterns = [
    path("me/", contests.me, name="api-me"),
    path("contests/", contests.contest_list, name="api-contests"),
    path("contests/<slug:slug>/", contests.contest_detail, name="api-contest"),
    path("contests/<slug:slug>/standings/", contests.standings, name="api-standings"),
    path("contests/<slug:slug>/entries/", entries.my_entries, name="api-my-entries"),
    path("contests/<slug:slug>/stages/", judges.contest_stages, name="api-contest-stages"),
    path("contests/<slug:slug>/freeze/", judges.contest_freeze, name="api-contest-freeze"),
    path("contests/<slug:slug>/publish/", judges.contest_publish, name="api-contest-publish"),
    path("contests/<slug:slug>/roles/", judges.contest_roles, name="api-contest-roles"),
    path("contests/<slug:slug>/log/", judges.judges_log, name="api-judges-log"),
    path("contests/<slug:slug>/roles/<str:username>/", judges.contest_role, name="api-contest-role"),
    path("entries/<id:entry_id>/submissions/", entries.entry_submissions, name="api-entry-submissions"),
    path("entries/<id:pk>/rename/", entries.entry_rename, name="api-entry-rename"),
    path("entries/<id:pk>/versus-allowed/", entries.entry_versus_allowed, name="api-entry-versus-allowed"),
    path("entries/<id:pk>/withdraw/", entries.entry_withdraw, name="api-entry-withdraw"),
    path("entries/<id:pk>/disqualify/", judges.entry_disqualify, name="api-entry-disqualify"),
    path("entries/<id:pk>/reinstate/", judges.entry_reinstate, name="api-entry-reinstate"),
    path("submissions/<id:pk>/", entries.submission_detail, name="api-submission"),
    path("submissions/<id:pk>/test-games/", entries.test_game, name="api-test-game"),
    path("submissions/<id:pk>/versus/", entries.versus_batches, name="api-versus"),
    path("matches/", matches.match_list, name="api-matches"),
    path("matches/<id:pk>/", matches.match_detail, name="api-match"),
    path("matches/<id:pk>/replay/", matches.match_replay, name="api-replay"),
    path("matches/<id:pk>/bundle/", matches.match_bundle, name="api-bundle"),
    path("matches/<id:pk>/rerun/", judges.match_rerun, name="api-match-rerun"),
    path("matches/<id:pk>/cancel/", judges.match_cancel, name="api-match-cancel"),
    path("matches/<id:pk>/attempts/", judges.match_attempts, name="api-match-attempts"),
    path("matches/<id:pk>/verify/", judges.match_verify, name="api-match-verify"),
    path("submissions/<id:pk>/rebuild/", judges.submission_rebuild, name="api-submission-rebuild"),
    path("stages/<id:pk>/", judges.stage_detail, name="api-stage"),
    path("stages/<id:pk>/run/", judges.stage_run, name="api-stage-run"),
    path("stages/<id:pk>/rerun/", judges.stage_rerun, name="api-stage-rerun"),
    path("stages/<id:pk>/cancel/", judges.stage_cancel, name="api-stage-cancel"),
    path("stages/<id:pk>/credit-rest/", judges.stage_credit_rest, name="api-stage-credit-rest"),
    path("notifications/", notifications.notification_list, name="api-notifications"),
    path("notifications/read/", notifications.notifications_read, name="api-notifications-read"),
    path("games/", game_api.game_list, name="api-games"),
    path("games/<str:key>/", game_api.game_detail, name="api-game"),
    path("games/<str:name>/owners/", game_api.game_owners, name="api-game-owners"),
    path("games/<str:name>/owners/<str:username>/", game_api.game_owner, name="api-game-owner"),
    path("events/", events_api.events, name="api-events"),
    path("events/head/", events_api.events_head, name="api-events-head"),
    re_path(r"", not_found),  # anything else under /api/ is a 404 in the API's own shape
]
