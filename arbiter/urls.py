from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import language
from arbiter import js_catalogue, views
from web import kit

admin.site.site_header = "Arbiter administration"

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("metrics", views.metrics, name="metrics"),
    # Where browsers look for an icon on a page that names none (/metrics, a replay's JSON).
    path("favicon.ico", views.favicon),
    path("kit/arbiter.tar.gz", kit.download, name="kit-archive"),  # the code this site runs, to play at home
    path("i18n/setlang/", language.set_language, name="set_language"),  # the header's choice of language
    # The JavaScript's words (arbiter/js_catalogue.py): the current catalogues' address, then an older one's.
    path(f"jsi18n/{js_catalogue.version()}/<str:language>.js", js_catalogue.catalogue, name="js-catalogue"),
    path("jsi18n/<str:wanted>/<str:language>.js", js_catalogue.catalogue),
    path("accounts/", include("accounts.urls")),
    path("", include("web.urls")),
    path("games/", include("web.game_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Our own page around Swagger UI: it names its language (templates/api_docs.html).
    path(
        "api/docs/",
        SpectacularSwaggerView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    path("api/", include("arbiter.api_urls")),
    path("admin/", admin.site.urls),
]

handler400 = views.bad_request
handler403 = views.permission_denied
handler404 = views.page_not_found
handler500 = views.server_error
