"""Sign-up, profile and API tokens (login, logout and password change are Django's views)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from arena.bots.models import Bot
from arena.players.services import revoke_token, rotate_token
from arena.tournaments.models import Tournament


def signup(request):
    if request.user.is_authenticated:
        return redirect("my-bots")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Create your first bot below.")
        return redirect("my-bots")
    return render(request, "players/signup.html", {"form": form})


@login_required
def profile(request):
    token = Token.objects.filter(user=request.user).first()
    return render(
        request,
        "players/profile.html",
        {
            "token": token,
            "bots": Bot.objects.filter(owner=request.user),
            "tournaments": Tournament.objects.filter(organiser=request.user),
        },
    )


@login_required
@require_POST
def token_create(request):
    rotate_token(request.user)
    messages.success(request, "A new API token was created; the old one no longer works.")
    return redirect("profile")


@login_required
@require_POST
def token_revoke(request):
    revoke_token(request.user)
    messages.success(request, "Your API token was revoked.")
    return redirect("profile")
