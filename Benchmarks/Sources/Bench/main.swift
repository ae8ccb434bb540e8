print("widgethost-bench")
