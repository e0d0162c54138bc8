enum HTTPStandInPlaceholder {}
