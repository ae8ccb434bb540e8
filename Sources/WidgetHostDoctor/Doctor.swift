// `widgethost doctor` lives here; see docs/porting.md.
