package schedule

// RecipeCron is the cron of a library recipe's job (SetRecipeSchedule
// files it under the recipe's id), nil when it has none or there is no
// scheduler.
func (s *Scheduler) RecipeCron(recipeID string) *string {
	if s == nil {
		return nil
	}
	j, err := s.Get(recipeID)
	if err != nil {
		return nil
	}
	return &j.Cron
}
