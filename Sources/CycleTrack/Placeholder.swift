enum CycleTrackPlaceholder {}
