"""AlphaZero-style agents: PUCT search over determinised worlds guided by a policy/value network.

`features` turns core observations into the network's inputs (any player count, line size and board size),
`network` is the torch model, `files` saves and reads networks (their variant is read without torch), `search` is
the batched PUCT search and `agent` the `az` agent spec. Only `files` and `features` import without torch.
"""
