"""The terminal front end: drawing a seat's view with Rich, and the loop that lets people play."""
