"""Shared plumbing of the library wrappers: settings resolution and the profile= convention."""
from . import _settings


def settings_of(target=None, cores=None, numerics=None):
    return _settings.resolve(target=target, cores=cores, numerics=numerics)


def finish(pair, profile):
    """(result, Profile) from _core -> result, or (result, Profile) when profile=True."""
    result, prof = pair
    return (result, prof) if profile else result
