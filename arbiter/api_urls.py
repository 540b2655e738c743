from django.urls import path, re_path

from web import api, game_api
from web import events as events_api
from web.api_support import not_found

urlpatterns = [
    path("me/", api.me, name="api-me"),
    path("contests/", api.contest_list, name="api-contests"),
    path("contests/<slug:slug>/", api.contest_detail, name="api-contest"),
    path("contests/<slug:slug>/standings/", api.standings, name="api-standings"),
    path("contests/<slug:slug>/entries/", api.my_entries, name="api-my-entries"),
    path("contests/<slug:slug>/stages/", api.contest_stages, name="api-contest-stages"),
    path("contests/<slug:slug>/freeze/", api.contest_freeze, name="api-contest-freeze"),
    path("contests/<slug:slug>/publish/", api.contest_publish, name="api-contest-publish"),
    path("entries/<id:entry_id>/submissions/", api.entry_submissions, name="api-entry-submissions"),
    path("entries/<id:pk>/rename/", api.entry_rename, name="api-entry-rename"),
    path("entries/<id:pk>/versus-allowed/", api.entry_versus_allowed, name="api-entry-versus-allowed"),
    path("entries/<id:pk>/withdraw/", api.entry_withdraw, name="api-entry-withdraw"),
    path("entries/<id:pk>/disqualify/", api.entry_disqualify, name="api-entry-disqualify"),
    path("entries/<id:pk>/reinstate/", api.entry_reinstate, name="api-entry-reinstate"),
    path("submissions/<id:pk>/", api.submission_detail, name="api-submission"),
    path("submissions/<id:pk>/test-games/", api.test_game, name="api-test-game"),
    path("submissions/<id:pk>/versus/", api.versus_batches, name="api-versus"),
    path("matches/", api.match_list, name="api-matches"),
    path("matches/<id:pk>/", api.match_detail, name="api-match"),
    path("matches/<id:pk>/replay/", api.match_replay, name="api-replay"),
    path("matches/<id:pk>/bundle/", api.match_bundle, name="api-bundle"),
    path("matches/<id:pk>/rerun/", api.match_rerun, name="api-match-rerun"),
    path("matches/<id:pk>/cancel/", api.match_cancel, name="api-match-cancel"),
    path("matches/<id:pk>/attempts/", api.match_attempts, name="api-match-attempts"),
    path("matches/<id:pk>/verify/", api.match_verify, name="api-match-verify"),
    path("submissions/<id:pk>/rebuild/", api.submission_rebuild, name="api-submission-rebuild"),
    path("stages/<id:pk>/", api.stage_detail, name="api-stage"),
    path("stages/<id:pk>/run/", api.stage_run, name="api-stage-run"),
    path("stages/<id:pk>/rerun/", api.stage_rerun, name="api-stage-rerun"),
    path("stages/<id:pk>/cancel/", api.stage_cancel, name="api-stage-cancel"),
    path("stages/<id:pk>/credit-rest/", api.stage_credit_rest, name="api-stage-credit-rest"),
    path("notifications/", api.notification_list, name="api-notifications"),
    path("notifications/read/", api.notifications_read, name="api-notifications-read"),
    path("games/", game_api.game_list, name="api-games"),
    path("games/<str:key>/", game_api.game_detail, name="api-game"),
    path("events/", events_api.events, name="api-events"),
    path("events/head/", events_api.events_head, name="api-events-head"),
    re_path(r"", not_found),  # anything else under /api/ is a 404 in the API's own shape
]
