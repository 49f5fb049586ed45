from hypothesis import settings

settings.register_profile("ci", max_examples=30, deadline=None)
settings.register_profile("default", max_examples=30, deadline=None)
settings.load_profile("default")
