print("perchkit-demo")
