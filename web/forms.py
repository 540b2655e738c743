from django import forms
from django.utils.translation import gettext_lazy

from contests import entry_form
from contests.models import Contest


class SubmissionForm(forms.Form):
    """A new entry (name and the contest's entry-form fields) or a new version of one."""

    source = forms.FileField(
        label=gettext_lazy("Program"),
        help_text=gettext_lazy("A source file, an archive (.zip, .tar.gz) or a Linux executable."),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        required=False,
        help_text=gettext_lazy("Leave on automatic to go by the file's extension."),
    )

    def __init__(self, *args, contest: Contest, languages: dict[str, str], new_entry: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", gettext_lazy("automatic")), *languages.items()]
        if new_entry:
            self.fields["name"] = forms.CharField(
                label=gettext_lazy("Entry name"), max_length=100, help_text=gettext_lazy("Shown in the standings.")
            )
            for spec in contest.entry_form:
                self.fields[f"form_{spec['name']}"] = _field(spec)
            self.order_fields(["name", *[f"form_{s['name']}" for s in contest.entry_form], "source", "language"])

    def entry_form_data(self) -> dict:
        """The answers as the service checks them (it refuses what the form let through)."""
        return {k[5:]: v for k, v in self.cleaned_data.items() if k.startswith("form_") and v not in (None, "")}


def _field(spec: dict) -> forms.Field:
    """The form field of one entry-form question; the service checks the answer again."""
    kind = spec.get("type", "text")
    common = {
        "label": entry_form.label(spec),
        "required": bool(spec.get("required")),
        "help_text": spec.get("help", ""),
    }
    if kind == "checkbox":
        return forms.BooleanField(**common)
    if kind == "number":
        return forms.FloatField(min_value=0, **common)
    if kind == "integer":
        return forms.IntegerField(min_value=0, **common)
    if kind == "email":
        return forms.EmailField(**common)
    if kind == "choice":
        choices = [("", "—"), *((str(c), str(c)) for c in spec.get("choices", []))]
        return forms.ChoiceField(choices=choices, **common)
    if kind == "textarea":
        return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), max_length=entry_form.TEXTAREA_MAX, **common)
    return forms.CharField(max_length=int(spec.get("max") or entry_form.TEXT_MAX), **common)
