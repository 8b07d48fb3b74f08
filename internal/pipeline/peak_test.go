package pipeline

// PeakChildren is the most children this extractor had alive at once.
func (c *ChildExtractor) PeakChildren() int { return int(c.peak.Load()) }
