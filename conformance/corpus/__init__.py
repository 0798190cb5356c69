"""The corpus: scenario files read with their lines, checked against schema and vocabulary, traced to the documents."""
