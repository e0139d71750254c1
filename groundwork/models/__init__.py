"""The models trained here, run offline with onnxruntime: the graphs and tokenizers, the relevance
model's input, and the cache of their scores."""
