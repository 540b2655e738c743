from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import language, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/language/", language.choose_language, name="choose-language"),
    path("tokens/<id:pk>/revoke/", views.revoke_token, name="revoke-token"),
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/settings/", views.notification_settings, name="notification-settings"),
]
