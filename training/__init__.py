"""Training the project's models (`make models`): torch at training time only, never at run time.
crossencoder.py fine-tunes and exports; each model's module builds its data and card."""
