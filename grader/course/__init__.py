"""The instructor's tools: grading a class, reporting on it, releasing and proving a course."""
