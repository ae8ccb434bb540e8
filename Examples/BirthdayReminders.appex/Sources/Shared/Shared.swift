enum BirthdayRemindersShared {}
