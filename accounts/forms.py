from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext, gettext_lazy

from judging.models import Notification
from judging.news.notifications import kinds_for


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text=gettext_lazy("For news about your submissions; never shown to others.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(gettext("An account with this e-mail address already exists."))
        return email


class NotificationEmailForm(forms.Form):
    """Which kinds of notification come by e-mail; the site lists every kind all the same."""

    email = forms.MultipleChoiceField(
        choices=Notification.Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=gettext_lazy("E-mail me when"),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        theirs = kinds_for(user)
        self.fields["email"].choices = [(k, label) for k, label in Notification.Kind.choices if k in theirs]
