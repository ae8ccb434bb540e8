print("widgethostd")
