from django import forms

from contests.models import Contest


class SubmissionForm(forms.Form):
    """A new entry (name and the contest's entry-form fields) or a new version of one."""

    source = forms.FileField(
        label="Program", help_text="A source file, an archive (.zip, .tar.gz) or a Linux executable."
    )
    language = forms.ChoiceField(
        label="Language", required=False, help_text="Leave on automatic to go by the file's extension."
    )

    def __init__(self, *args, contest: Contest, languages: dict[str, str], new_entry: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", "automatic"), *languages.items()]
        if new_entry:
            self.fields["name"] = forms.CharField(
                label="Entry name", max_length=100, help_text="Shown in the standings."
            )
            for spec in contest.entry_form:
                field_class = forms.FloatField if spec.get("type") == "number" else forms.CharField
                self.fields[f"form_{spec['name']}"] = field_class(
                    label=spec.get("label", spec["name"]), required=bool(spec.get("required"))
                )
            self.order_fields(["name", *[f"form_{s['name']}" for s in contest.entry_form], "source", "language"])

    def entry_form_data(self) -> dict:
        return {k[5:]: v for k, v in self.cleaned_data.items() if k.startswith("form_") and v not in (None, "")}
