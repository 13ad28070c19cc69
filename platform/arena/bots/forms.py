from django import forms
from django.conf import settings

import engine
from arena.bots.models import Bot

# What a multipart body adds around the file (boundaries, headers, other fields): a request
# longer than the upload limit plus this is refused from its Content-Length, unread.
MULTIPART_SLACK_BYTES = 64 * 1024


class BotForm(forms.Form):
    title = forms.ChoiceField(choices=())
    name = forms.CharField(max_length=64)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=Bot.DESCRIPTION_MAX_LENGTH,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = [(t, engine.title(t).name) for t in engine.titles()]


def readable_size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"


def oversize_request(content_length: str | None) -> str | None:
    """Why a request of this Content-Length is refused before its body is read, or None."""
    try:
        length = int(content_length or 0)
    except ValueError:
        return None
    limit = settings.ARENA_UPLOAD_MAX_BYTES
    if length <= limit + MULTIPART_SLACK_BYTES:
        return None
    return (
        f"This upload is {readable_size(length)}; uploads may be at most {readable_size(limit)}. "
        "Leave out data files your bot does not need."
    )


def oversize_file(size: int) -> str | None:
    """Why a file of ``size`` bytes (as the multipart body gave it) is refused, or None."""
    limit = settings.ARENA_UPLOAD_MAX_BYTES
    if size <= limit:
        return None
    return (
        f"The file is {readable_size(size)}; uploads may be at most {readable_size(limit)}. "
        "Leave out data files your bot does not need."
    )


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,
        help_text="A single .py or .js file, or a zip of your bot's folder: with a bot.json "
        'manifest such as {"entry": "bot.py"}, or without one when the entry is bot.py, main.py, '
        "bot.js or main.js.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        refused = oversize_file(upload.size)
        if refused:
            raise forms.ValidationError(refused)
        return upload
