from django.urls import path

from web import game_views

app_name = "games"
urlpatterns = [
    path("", game_views.game_list, name="list"),
    path("upload/", game_views.game_upload, name="upload"),
    path("<str:key>/", game_views.game_version, name="version"),
    path("<str:key>/game.zip", game_views.game_archive, name="archive"),
    path("<str:key>/viewer.js", game_views.game_viewer, name="viewer"),
    path("<str:key>/viewer.html", game_views.game_viewer_page, name="viewer-page"),
]
