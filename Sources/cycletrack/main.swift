print("cycletrack")
