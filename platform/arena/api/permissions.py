from rest_framework import permissions


class CanEditOrReadOnly(permissions.BasePermission):
    """Anyone reads; changing an object needs ``obj.can_edit(user)`` (owner, organiser, staff)."""

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return obj.can_edit(request.user)
