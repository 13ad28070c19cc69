from django import forms

import engine


class BotForm(forms.Form):
    title = forms.ChoiceField(choices=())
    name = forms.CharField(max_length=64)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = [(t, engine.title(t).name) for t in engine.titles()]


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,
        help_text="A single .py or .js file, or a zip of your bot's folder: with a bot.json "
        'manifest such as {"entry": "bot.py"}, or without one when the entry is bot.py, main.py, '
        "bot.js or main.js.",
    )
