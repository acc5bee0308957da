"""The course layer: what the notebooks call (rejlab.course.homework); the library never imports it."""
