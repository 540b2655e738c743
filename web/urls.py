from django.urls import path

from web import judge_views, organise_views, views

app_name = "contests"
urlpatterns = [
    path("contests/<slug:slug>/", views.contest_detail, name="detail"),
    path("contests/<slug:slug>/submit/", views.submit, name="submit"),
    path("contests/<slug:slug>/entries/<id:entry_id>/submit/", views.submit, name="submit-version"),
    path("contests/<slug:slug>/entries/<id:entry_id>/rename/", views.entry_rename, name="entry-rename"),
    path("contests/<slug:slug>/entries/<id:entry_id>/withdraw/", views.entry_withdraw, name="entry-withdraw"),
    path("contests/<slug:slug>/entries/<id:entry_id>/versus-allowed/", views.entry_versus_allowed, name="entry-versus"),
    path("contests/<slug:slug>/standings/", views.standings, name="standings"),
    path("contests/<slug:slug>/standings/history.json", views.standings_history, name="standings-history"),
    path("contests/<slug:slug>/matches/", views.match_list, name="matches"),
    path("contests/<slug:slug>/practice.zip", views.practice_inputs, name="practice"),
    path("contests/<slug:slug>/kit.zip", views.race_kit, name="race-kit"),
    path("contests/<slug:slug>/verification/", judge_views.verification_queue, name="verification"),
    path("contests/<slug:slug>/verification/<id:match_id>/", judge_views.verify_output, name="verify-output"),
    path(
        "contests/<slug:slug>/verification/stages/<id:stage_id>/credit/",
        judge_views.credit_rest,
        name="credit-rest",
    ),
    path("contests/<slug:slug>/judges-log/", judge_views.judges_log, name="judges-log"),
    path("contests/<slug:slug>/console/", judge_views.console, name="console"),
    path("contests/<slug:slug>/console/act/", judge_views.console_action, name="console-action"),
    path("contests/<slug:slug>/console/stages/new/", judge_views.add_stage, name="add-stage"),
    path("contests/<slug:slug>/entries/<id:entry_id>/", views.entry_detail, name="entry"),
    path("contests/<slug:slug>/entries/<id:entry_id>/ratings.json", views.entry_ratings, name="entry-ratings"),
    path("organise/", organise_views.contest_list, name="organise"),
    path("organise/contests/new/", organise_views.contest_new, name="organise-new"),
    path("organise/contests/<slug:slug>/", organise_views.contest_edit, name="organise-edit"),
    path("organise/preview/", organise_views.rules_preview, name="organise-preview"),
    path("submissions/<id:pk>/", views.submission_detail, name="submission"),
    path("submissions/<id:pk>/source/", views.submission_source, name="submission-source"),
    path("submissions/<id:pk>/test-game/", views.test_game, name="test-game"),
    path("submissions/<id:pk>/versus/", views.versus_batch, name="versus"),
    path("matches/<id:pk>/", views.match_detail, name="match"),
    path("matches/<id:pk>/replay.json", views.match_replay, name="replay"),
    path("matches/<id:pk>/bundle.zip", views.match_bundle, name="match-bundle"),
    path("matches/<id:pk>/rerun/", views.match_action, {"action": "rerun"}, name="match-rerun"),
    path("matches/<id:pk>/cancel/", views.match_action, {"action": "cancel"}, name="match-cancel"),
]
