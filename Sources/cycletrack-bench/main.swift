print("cycletrack-bench")
