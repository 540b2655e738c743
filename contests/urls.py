from django.urls import path

from contests import views

app_name = "contests"
urlpatterns = [
    path("contests/<slug:slug>/", views.contest_detail, name="detail"),
    path("contests/<slug:slug>/submit/", views.submit, name="submit"),
    path("contests/<slug:slug>/entries/<int:entry_id>/submit/", views.submit, name="submit-version"),
    path("contests/<slug:slug>/standings/", views.standings, name="standings"),
    path("contests/<slug:slug>/matches/", views.match_list, name="matches"),
    path("submissions/<int:pk>/", views.submission_detail, name="submission"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/replay.json", views.match_replay, name="replay"),
]
