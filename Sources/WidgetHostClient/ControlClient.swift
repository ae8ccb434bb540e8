// The control-socket client lives here.
