print("birthdays")
