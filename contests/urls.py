from django.urls import path

from contests import views

app_name = "contests"
urlpatterns = [
    path("<slug:slug>/", views.contest_detail, name="detail"),
]
