print("BirthdayRemindersWidget")
