package queue

// SetFinishHook sets the hook a finish job calls at its steps (finishHook).
func SetFinishHook(f func(step string)) { finishHook = f }
