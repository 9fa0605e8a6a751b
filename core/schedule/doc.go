// Package schedule owns goose's scheduled recipe jobs: the
// <data>/schedules.json store in goose's ScheduledJob format, the copy of
// each job's recipe under <data>/scheduled_recipes/, cron normalisation
// (5, 6 or 7 fields, or robfig descriptors such as "@every 1s"), and the
// scheduler itself: create, update, delete, pause, unpause, run now, kill
// and inspect, with overlapping runs of a job prevented.
//
// A job's state is persisted before and after every run, and stale
// "running" flags left by a crash are cleared when the store is loaded, so
// a job is never stuck as running. The run itself goes through the
// injected Runner (the agent, wired by the caller), which is expected to
// create a session of type "scheduled" carrying the job's schedule_id;
// BuildRecipe gives it the rendered recipe.
package schedule
